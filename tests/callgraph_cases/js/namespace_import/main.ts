import * as lib from './lib';

lib.start();
