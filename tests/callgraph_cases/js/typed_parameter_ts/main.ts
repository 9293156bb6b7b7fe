class Store {
  save(): void {}
}

function persist(store: Store): void {
  store.save();
}

persist(new Store());
