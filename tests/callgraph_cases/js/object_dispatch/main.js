function start() {}
function stop() {}

const actions = { start: start, stop };

function dispatch(name) {
  actions[name]();
}

dispatch('start');
