class Parser {
  static create(): Parser {
    return new Parser();
  }

  parse(): void {}
}

Parser.create().parse();
