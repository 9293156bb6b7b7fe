export default class Widget {
  draw(): void {}
}
