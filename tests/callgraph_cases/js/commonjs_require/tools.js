function run() {
  helper();
}

function helper() {}

module.exports = { run, helper };
