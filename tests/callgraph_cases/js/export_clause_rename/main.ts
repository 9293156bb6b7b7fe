import { publicName } from './lib';

publicName();
