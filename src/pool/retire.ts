/**
 * A worker that fails a batch is not given another: its task function, wrapped here, ends the
 * worker instead of throwing. The error is thrown outside the task (uncaught), so piscina sees
 * the worker die with it: it fails the task with that error and starts a new worker in its place.
 * Whatever state the failure left behind (a trapped kernel, a heap near its limit) goes with it.
 */

/** `solve`, ending its worker thread, with the error, when it throws or the promise it returns rejects. */
export function retiringOnFailure<Task, Outcome>(solve: (task: Task) => Outcome | Promise<Outcome>): (task: Task) => Outcome | Promise<Outcome> {
  return (task) => {
    try {
      const outcome = solve(task);
      return outcome instanceof Promise ? outcome.catch(retire) : outcome;
    } catch (error) {
      return retire(error);
    }
  };
}

/** Never settles: the uncaught `error` ends the thread, and piscina fails the task with it. */
function retire(error: unknown): Promise<never> {
  return new Promise<never>(() =>
    setImmediate(() => {
      throw error;
    }),
  );
}
