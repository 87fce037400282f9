import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pushPrismaTables, type PrismaApp } from './prisma-push.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const apps: string[] = [];
afterEach(async () => {
	vi.unstubAllEnvs();
	for (const app of apps.splice(0)) await rm(app, { recursive: true, force: true });
});

/** An app as the CLI leaves it before the push: Prisma's config and schema, the repository's Prisma CLI when `installed`. */
async function prismaApp({ installed = true, migrations = false } = {}): Promise<PrismaApp> {
	const root = await mkdtemp(path.join(tmpdir(), 'create-auth-prisma-push-'));
	apps.push(root);
	await mkdir(path.join(root, 'prisma'));
	await writeFile(path.join(root, 'prisma/schema.prisma'), 'datasource db {\n  provider = "sqlite"\n}\n\nmodel Post {\n  id Int @id\n}\n');
	await writeFile(path.join(root, 'prisma7.config.ts'), "export default { schema: 'prisma/schema.prisma', datasource: { url: 'file:./dev.db' } };\n");
	if (migrations) await mkdir(path.join(root, 'prisma/migrations/20260101000000_init'), { recursive: true });
	if (installed) await symlink(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
	return { root, prisma: { schema: 'prisma/schema.prisma', provider: 'sqlite', client: 'server/prisma', clientExport: 'prisma' } };
}

describe('pushPrismaTables', () => {
	it('leaves an app that keeps Prisma migrations to its next prisma migrate dev, running nothing', async () => {
		const app = await prismaApp({ migrations: true });
		await expect(pushPrismaTables(app)).resolves.toBe('migrations');
		expect(existsSync(path.join(app.root, 'dev.db'))).toBe(false);
	});

	it("fails with E_MIGRATION_FAILED and Prisma's own words when its push fails", async () => {
		// The schema engine db push runs, as one that fails: Prisma's own error comes back.
		vi.stubEnv('PRISMA_SCHEMA_ENGINE_BINARY', '/bin/false');
		vi.stubEnv('PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING', '1');
		const push = pushPrismaTables(await prismaApp());
		await expect(push).rejects.toMatchObject({ code: 'E_MIGRATION_FAILED', hint: expect.stringContaining('npx create-auth migrate') });
		await expect(push).rejects.toThrow(/prisma db push: [\s\S]*Schema engine exited/);
	}, 60_000);

	it('fails with E_MIGRATION_FAILED when the app has no Prisma CLI installed', async () => {
		await expect(pushPrismaTables(await prismaApp({ installed: false }))).rejects.toMatchObject({
			code: 'E_MIGRATION_FAILED',
			message: expect.stringContaining('prisma is not installed in the app')
		});
	});
});
