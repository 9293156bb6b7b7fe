class Base {
  log() {}
}

class Service extends Base {
  run() {
    this.log();
  }
}

const s = new Service();
s.run();
s.log();
