// The fixture theme's own search client: an asset of the project replaces the built-in one,
// and goes out without its comment lines and indentation.
(function () {
  window.fixtureSearch = true;
})();
