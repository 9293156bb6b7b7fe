import { greet } from './lib.js';

greet('x');
