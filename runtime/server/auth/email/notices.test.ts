import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../config.js';
import { Jar, requestEvent } from '../../../test/event.js';
import type { MailMessage } from './mail.js';
import { noticeMail, sendNotice } from './notices.js';

const secret = 'a'.repeat(32);

describe('security notices', () => {
	it('say what changed, where and when, and what to do if it was not the user', () => {
		const mail = noticeMail('ada@example.com', 'account-linked', { host: 'app.example', accountUrl: 'https://app.example/account', what: 'GitHub', at: new Date('2026-11-28T10:00:00Z') });
		expect(mail).toMatchObject({ to: 'ada@example.com', subject: 'Your GitHub account was linked on app.example' });
		expect(mail.text).toContain('This happened on app.example at Sat, 28 Nov 2026 10:00:00 GMT.');
		expect(mail.text).toContain('review how you sign in at https://app.example/account');
		expect(noticeMail('a@example.com', 'passkey-added', { host: 'h', what: '<b>x</b>' }).html).toContain('&#60;b&#62;x&#60;/b&#62;');
	});

	it('link to the trusted origin only: a request on an untrusted host gets no link (a forged Host header never reaches a mail)', async () => {
		const mailer = vi.fn(async (_message: MailMessage) => undefined);
		const untrusted = resolveConfig({ providers: [], secret, mailer });
		sendNotice(requestEvent('http://evil.example/account', new Jar()), untrusted, 'ada@example.com', 'password-changed');
		expect(mailer.mock.calls[0]![0]).toMatchObject({ text: expect.stringContaining('on your account page') });
		expect(JSON.stringify(mailer.mock.calls[0]![0])).not.toContain('http://evil.example');
		const trusted = resolveConfig({ providers: [], secret, mailer, url: 'https://app.example/' });
		sendNotice(requestEvent('http://evil.example/account', new Jar()), trusted, 'ada@example.com', 'password-changed');
		expect(mailer.mock.calls[1]![0]).toMatchObject({ subject: 'Your password was changed on app.example', text: expect.stringContaining('https://app.example/account') });
	});

	it('never wait for the mail server, log its failure, and send nothing to a user without an address', async () => {
		const errors: Error[] = [];
		const mailer = vi.fn((_message: MailMessage) => Promise.reject(new Error('connect ECONNREFUSED')));
		const config = resolveConfig({ providers: [], secret, mailer, trustHost: true, logger: { error: (err) => errors.push(err) } });
		expect(sendNotice(requestEvent('http://app.example/account', new Jar()), config, 'ada@example.com', 'password-set')).toBeUndefined();
		await vi.waitFor(() => expect(errors).toMatchObject([{ type: 'EmailSignInError', message: 'Sending the password-set notice to ada@example.com failed.' }]));
		sendNotice(requestEvent('http://app.example/account', new Jar()), config, null, 'password-set');
		expect(mailer).toHaveBeenCalledTimes(1);
	});
});
