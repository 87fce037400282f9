import { start } from '../e2e/harness/app.js';
import { addVirtualAuthenticator, launchBrowser } from '../e2e/harness/browser.js';
const [dir, out = '/tmp/shots', extra = ''] = process.argv.slice(2);
const started = await start(dir, { mode: 'preview' });
const server = { url: started.url.replace('//127.0.0.1:', '//localhost:'), output: started.output, stop: started.stop };
const browser = await launchBrowser();
const email = `ada-${Date.now()}@example.com`;
const PASSWORD = 'correct horse battery staple';
try {
	const phone = await (await browser.newContext({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' })).newPage();
	await phone.goto(`${server.url}/signup`);
	await phone.getByLabel('Email').fill(email);
	await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
	await phone.getByRole('button', { name: 'Create account' }).click();
	await phone.waitForURL((u) => u.pathname === '/');
	for (const [name, viewport, scheme] of [['desktop-light', { width: 1280, height: 900 }, 'light'], ['phone-dark', { width: 390, height: 844 }, 'dark'], ['phone-light', { width: 390, height: 844 }, 'light'], ['desktop-dark', { width: 1280, height: 900 }, 'dark']]) {
		const context = await browser.newContext({ viewport, colorScheme: scheme, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' });
		const page = await context.newPage();
		await page.goto(`${server.url}/signin`);
		await page.getByLabel('Email').fill(email);
		await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
		await page.getByRole('button', { name: 'Sign in', exact: true }).click();
		await page.waitForURL((u) => u.pathname === '/');
		if (name === 'desktop-light') {
			await addVirtualAuthenticator(page);
			await page.goto(`${server.url}/account`);
			await page.waitForLoadState('networkidle');
			await page.getByRole('button', { name: 'Add a passkey' }).click();
			await page.waitForURL((u) => u.searchParams.get('passkey') === 'added');
		}
		await page.goto(`${server.url}/account${extra}`);
		await page.addStyleTag({ content: ':root { color-scheme: light dark }' });
		await page.screenshot({ path: `${out}-${name}.png`, fullPage: true });
		console.log(`${out}-${name}.png`);
		await context.close();
	}
} finally {
	console.log(server.output?.() ?? server.output ?? '');
	await browser.close();
	await server.stop();
}
