/**
 * The file each piscina worker loads: CommonJS, importing the worker module with import(). piscina
 * require()s a worker file first, and on Node 20.20 require() of an ES module aborts the process
 * when the worker is terminated meanwhile ("v8::Module::IsGraphAsync must be used on an
 * instantiated module"). piscina awaits the default export (the handler) before taking tasks.
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
