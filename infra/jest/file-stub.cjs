// Asset imports (images, fonts) become their file name, as a bundler would give a URL.
module.exports = 'test-file-stub';
