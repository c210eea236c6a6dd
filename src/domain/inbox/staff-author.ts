import type { Ctx, StaffCaller } from '../context.js';
import { staffAuthor, type Author } from '../conversations/authors.js';

/** The signed-in team member as the author of the parts they add. */
export const authorOf = (ctx: Ctx<StaffCaller>): Author => staffAuthor({ id: ctx.caller.staffUser.id, name: ctx.caller.staffUser.name });
