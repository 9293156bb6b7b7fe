import { consoleLogger, displayName as showName, UserService } from './services';
import formatDate, { flattenTags, TagTree } from './utils/format';
import { Role } from './models/user';

const DEFAULT_ADMIN = { first: 'ada', last: 'LOVELACE', email: ' Ada@Example.org ' };

const STARTER_TAGS: TagTree = {
  lang: { ts: { strict: null }, js: null },
  team: { platform: null },
};

/**
 * Start the application and seed the administrator account.
 * Resolves with the ready-to-use user service.
 */
export async function bootstrap(): Promise<UserService> {
  const service = new UserService(consoleLogger);
  await service.init();
  const admin = service.createUser(DEFAULT_ADMIN.first, DEFAULT_ADMIN.last, DEFAULT_ADMIN.email, Role.Admin);
  admin.tags = flattenTags(STARTER_TAGS);
  consoleLogger.info(`admin ${showName(admin.firstName, admin.lastName)} seeded on ${formatDate(new Date())}`);
  return service;
}

// Print every admin with their tags, one per line.
function reportAdmins(service: UserService): void {
  for (const user of service.listByRole(Role.Admin)) {
    console.log(`${user.id}\t${user.tags.join(',')}`);
  }
}

bootstrap()
  .then((service) => {
    reportAdmins(service);
    console.log(service.health());
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
