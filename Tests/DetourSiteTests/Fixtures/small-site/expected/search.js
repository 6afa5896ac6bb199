(function () {
window.fixtureSearch = true;
})();
