/**
 * The file each piscina worker loads: CommonJS, importing the worker module with import(). piscina
 * require()s a worker file first, and on Node 20.20 require() of an ES module aborts the process
 * when the worker is terminated meanwhile ("v8::Module::IsGraphAsync must be used on an
 * instantiated module"). piscina awaits the default export (the handler) before taking tasks.
 */

/** The worker module as `npm run build` bundles it into one file (quicker to load); a variable, so tsc does not resolve it. */
const bundled = "../../cli/worker.mjs";

/** When the module or its engines fail to load, a handler that throws that error (piscina would otherwise lose the cause). */
export default import(bundled)
  .then((module: { default: unknown }) => module.default)
  .catch((error: unknown) => () => {
    throw error;
  });
