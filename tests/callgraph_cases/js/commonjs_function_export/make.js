module.exports = function build() {
  return 1;
};
