import { DomainError, type FieldError } from '../errors.js';

// 422 refusals of pictures, each naming the field (`attachment_ids.<index>`, or `body` on upload).

/** An unusable picture: not the caller's, not uploaded, already used, or bytes not of the declared type and size. */
export const attachmentInvalid = (errors: FieldError[]) =>
  new DomainError(
    422,
    'attachment_invalid',
    'The picture cannot be used',
    errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  );

export const tooManyPictures = (field: string, max: number) =>
  new DomainError(422, 'too_many_pictures', 'Too many pictures', `A message holds at most ${max} pictures.`, [
    { field, message: `at most ${max} pictures` },
  ]);
