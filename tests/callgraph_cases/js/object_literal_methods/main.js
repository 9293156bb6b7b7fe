function helper() {
  return 1;
}

const api = {
  start() {
    return helper();
  },
  stop: () => helper(),
  name: 'api',
};

function main() {
  api.start();
  api.stop();
}

main();
