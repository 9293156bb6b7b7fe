export { slugify as slug } from './text';
export * from './cache';
