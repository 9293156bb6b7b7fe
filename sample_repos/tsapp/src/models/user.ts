/** Unique identifier of a user; treat it as an opaque string. */
export type UserId = string;

/** Roles a user can have, from least to most privileged. */
export enum Role {
  Guest = 'guest',
  Member = 'member',
  Admin = 'admin',
}

/**
 * A user as stored by the application.
 * Optional fields may be missing for accounts imported from the old system.
 */
export interface User {
  id: UserId;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  tags?: string[];
}

/** Concrete user record with a few convenience helpers. */
export class UserRecord implements User {
  public tags: string[] = [];
  public readonly createdAt: Date = new Date();

  constructor(
    public id: UserId,
    public firstName: string,
    public lastName: string,
    public email: string,
    public role: Role = Role.Member,
  ) {}

  /** Whether this user may manage other users. */
  isAdmin(): boolean {
    return this.role === Role.Admin;
  }

  /** Two-letter initials, used as an avatar placeholder. */
  get initials(): string {
    return `${this.firstName.charAt(0)}${this.lastName.charAt(0)}`.toUpperCase();
  }

  toJSON(): User {
    const { id, firstName, lastName, email, role, tags } = this;
    return { id, firstName, lastName, email, role, tags };
  }
}
