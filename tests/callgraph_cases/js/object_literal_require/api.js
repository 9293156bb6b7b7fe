function helper() {
  return 1;
}

const api = {
  start() {
    return helper();
  },
  stop: () => 2,
};

module.exports = { api, helper };
