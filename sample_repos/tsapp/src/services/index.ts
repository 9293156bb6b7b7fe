// Public surface of the services layer. Import from here, not from the files.

export { UserService } from './userService';
export { formatName as displayName } from '../utils/format';
export * from './baseService';
