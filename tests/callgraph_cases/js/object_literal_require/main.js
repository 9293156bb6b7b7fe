const { api } = require('./api');

function main() {
  api.start();
  api.stop();
}

main();
