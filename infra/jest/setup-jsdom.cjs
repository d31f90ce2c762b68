// jsdom lacks these; react-router 7 needs TextEncoder/TextDecoder, MUI X grids and charts measure with ResizeObserver.
const util = require('node:util');

if (typeof globalThis.TextEncoder === 'undefined') globalThis.TextEncoder = util.TextEncoder;
if (typeof globalThis.TextDecoder === 'undefined') globalThis.TextDecoder = util.TextDecoder;
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// findBy*/waitFor default to 1 s, which a 2-core CI box running two jest workers and MUI renders overruns.
require('@testing-library/dom').configure({ asyncUtilTimeout: 5000 });
