import { Widget } from './ui';

new Widget().draw();
