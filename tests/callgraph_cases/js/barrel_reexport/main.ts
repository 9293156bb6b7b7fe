import { slug, Cache } from './utils';

slug('a b');
const c = new Cache();
c.get('k');
