class Client {
  fetch(): void {}
}

function makeClient(): Client {
  return new Client();
}

makeClient().fetch();
