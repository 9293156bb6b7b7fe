import { Role, User, UserId, UserRecord } from '../models/user';
import { BaseService, Logger } from './baseService';
import { formatName, slugify } from '../utils/format';

const MAX_USERS = 1000;

/** Thrown when a user cannot be created or found. */
export class UserError extends Error {
  constructor(message: string, public readonly userId?: UserId) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * Stores users in memory and enforces basic invariants.
 * Ids are derived from the user's display name and made unique on collision.
 */
export class UserService extends BaseService {
  private static instanceCount = 0;
  private users = new Map<UserId, UserRecord>();

  constructor(logger?: Logger) {
    super('users', logger);
    UserService.instanceCount += 1;
  }

  /** Create a service that already contains the given users. */
  static withUsers(users: User[], logger?: Logger): UserService {
    const service = new UserService(logger);
    users.forEach((u) => service.createUser(u.firstName, u.lastName, u.email, u.role));
    return service;
  }

  async init(): Promise<void> {
    this.log(`ready (instance ${UserService.instanceCount})`);
  }

  /** Create and store a new user, returning the stored record. */
  createUser(firstName: string, lastName: string, email: string, role: Role = Role.Member): UserRecord {
    this.assertCapacity();
    const record = this.buildRecord(firstName, lastName, email, role);
    this.users.set(record.id, record);
    this.log(`created ${record.id}`);
    return record;
  }

  /** Look a user up by id, throwing if it does not exist. */
  getUser(id: UserId): UserRecord {
    const user = this.users.get(id);
    if (!user) {
      throw new UserError(`no such user: ${id}`, id);
    }
    return user;
  }

  listByRole(role: Role): UserRecord[] {
    return [...this.users.values()].filter((u) => u.role === role).sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * Replace the whole directory with users from an external source.
   * The loader is awaited before anything is changed, so a failure keeps the old data.
   */
  async reload(loader: () => Promise<User[]>): Promise<number> {
    const fresh = await loader();
    this.users.clear();
    for (const user of fresh) {
      this.createUser(user.firstName, user.lastName, user.email, user.role);
    }
    return this.users.size;
  }

  // Build a record with a unique, slug-based id.
  private buildRecord(firstName: string, lastName: string, email: string, role: Role): UserRecord {
    const base = slugify(formatName(firstName, lastName));
    let id = base;
    for (let n = 2; this.users.has(id); n++) {
      id = `${base}-${n}`;
    }
    return new UserRecord(id, firstName, lastName, email.trim().toLowerCase(), role);
  }

  private assertCapacity(): void {
    if (this.users.size >= MAX_USERS) {
      this.logger.warn(`user limit ${MAX_USERS} reached`);
      throw new UserError('directory is full');
    }
  }
}
