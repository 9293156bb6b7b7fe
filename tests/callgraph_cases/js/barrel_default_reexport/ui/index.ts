export { default as Widget } from './widget';
