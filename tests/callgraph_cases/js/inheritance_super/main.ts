class Animal {
  constructor(public name: string) {}

  speak(): string {
    return this.name;
  }
}

class Dog extends Animal {
  constructor() {
    super('dog');
  }

  speak(): string {
    return super.speak();
  }
}

new Dog().speak();
