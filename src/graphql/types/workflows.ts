import { changeWorkflow, createWorkflow, MAX_WORKFLOWS, publishWorkflow, setWorkflowLive } from '../../domain/workflows/workflows.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';

// Workflows on the staff side: kept as drafts, published into versions (refused naming each problem
// under `definition`), paused and resumed. Runs are not built yet.

const WorkflowStateEnum = builder.enumType('WorkflowState', { values: ['draft', 'live', 'paused'] as const });

const WorkflowVersionRef = builder.prismaObject('WorkflowVersion', {
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    definition: t.expose('definition', { type: JSONValue, description: 'The definition as published, read whole.' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
  }),
});

export const WorkflowRef = builder.prismaObject('Workflow', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name'),
    state: t.expose('state', { type: WorkflowStateEnum }),
    draft: t.expose('draft', { type: JSONValue, description: 'The definition as last saved (checked only when published).' }),
    liveVersion: t.exposeInt('liveVersion', { nullable: true, description: 'The version new runs start on; null until published.' }),
    versions: t.relatedConnection('versions', { cursor: 'id', description: 'Newest first.', query: { orderBy: { number: 'desc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WorkflowInput = builder.inputType('WorkflowInput', {
  fields: (t) => ({
    name: t.string({ description: '1 to 100 characters.' }),
    definition: t.field({ type: JSONValue, description: 'The definition (docs/areas/workflows.md), saved as written up to 256 KiB.' }),
  }),
});

builder.queryField('workflows', (t) =>
  t.prismaConnection(
    {
      type: 'Workflow',
      cursor: 'id',
      description: `The app-mode's workflows (at most ${MAX_WORKFLOWS}), most recently changed first.`,
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.workflow.findMany({ ...query, where: { appModeId }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }] }),
    },
    connectionType(WorkflowRef, 'Workflow'),
  ),
);

builder.queryField('workflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { workflowId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

builder.mutationField('createWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    args: { appModeId: t.arg.id({ required: true }), input: t.arg({ type: WorkflowInput, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, input }, ctx) => {
      const made = await createWorkflow(asStaff(ctx), appModeId, input);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id: made.id } });
    },
  }),
);

builder.mutationField('changeWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    description: 'Saves the draft as written (the name too, when given); what is published stays until published again.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: WorkflowInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeWorkflow(asStaff(ctx), id, input);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('publishWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    description:
      'Publishes the draft as the next version, which new runs start on. Refused naming each problem under `definition` (a step unreached, a path that never ends, a loop without a wait, a bad member).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id }, ctx) => {
      await publishWorkflow(asStaff(ctx), id);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('setWorkflowLive', (t) =>
  t.prismaField({
    type: 'Workflow',
    description: 'live: false pauses it (no one new enters; runs under way go on); true takes people again.',
    args: { id: t.arg.id({ required: true }), live: t.arg.boolean({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id, live }, ctx) => {
      await setWorkflowLive(asStaff(ctx), id, live);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
