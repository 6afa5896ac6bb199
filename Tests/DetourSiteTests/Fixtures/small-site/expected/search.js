(function(){
window.fixtureSearch=true;
})();
