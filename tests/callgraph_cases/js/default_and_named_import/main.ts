import api, { version } from './api';

api();
version();
