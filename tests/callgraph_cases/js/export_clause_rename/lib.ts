function internalName(): void {}

export { internalName as publicName };
