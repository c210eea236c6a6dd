export class UnknownProcessError extends Error {
  constructor(name: string) {
    super(`no durable process is named '${name}'`);
  }
}

/** No run has this id, or it has ended and takes no more signals. */
export class RunNotFoundError extends Error {
  constructor(runId: string) {
    super(`no running durable process has the id '${runId}'`);
  }
}
