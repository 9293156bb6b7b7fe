import render from './view';

render();
