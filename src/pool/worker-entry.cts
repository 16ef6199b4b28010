/**
 * The file each piscina worker loads: CommonJS, importing the worker module (worker.ts). piscina
 * loads a worker file with require() first, and on Node 20.20 require() of an ES module is
 * linked by a call that aborts the whole process when the worker is terminated meanwhile
 * ("FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module", exit 134):
 * a run short enough to end while its workers start, then closes the pool as they load. import()
 * links the same module safely. piscina awaits this module's default export (the handler, once
 * the worker module has loaded its engines) before it takes tasks. The worker module has no
 * top-level await, for the same reason (worker.ts).
 */

/**
 * The worker module (worker.ts) as `npm run build` bundles it, one file (scripts/bundle-cli.mjs):
 * a worker loads it faster than the modules it is built from. A name in a variable: tsc does not
 * resolve it (the file exists only in dist/).
 */
const bundled = "../../cli/worker.mjs";

/**
 * When the module or its engines fail to load, a handler that throws that error: piscina would
 * otherwise reject every task with "No handler function exported", the cause lost.
 */
export default import(bundled)
  .then((module: { default: unknown }) => module.default)
  .catch((error: unknown) => () => {
    throw error;
  });
