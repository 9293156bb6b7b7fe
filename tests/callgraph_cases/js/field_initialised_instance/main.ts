class Repo {
  find(): void {}
}

class Service {
  private repo = new Repo();

  load(): void {
    this.repo.find();
  }
}

new Service().load();
