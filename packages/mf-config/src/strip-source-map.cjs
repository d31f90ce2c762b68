// Loader for `?raw` stylesheets: drops their `/*# sourceMappingURL=... */` line. Served bundles name no source map
// (infra/e2e/leaks.e2e.ts), and the map of a package's stylesheet is not served anyway.
module.exports = function stripSourceMap(source) {
  return source.replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '');
};
