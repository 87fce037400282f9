import { describe, expect, it, vi } from 'vitest';

// nodemailer as a mock that records when it is loaded (vitest evaluates the factory at the first import).
const nodemailer = vi.hoisted(() => ({ loaded: 0, sendMail: vi.fn(async () => ({})), createTransport: vi.fn() }));
vi.mock('nodemailer', () => {
	nodemailer.loaded++;
	nodemailer.createTransport.mockImplementation(() => ({ sendMail: nodemailer.sendMail }));
	return { createTransport: nodemailer.createTransport };
});
const { DEFAULT_SENDER, smtpMailer } = await import('./smtp.js');
const { logMailer } = await import('./mail.js');

const MESSAGE = { to: 'ada@example.com', subject: 'Sign in', text: 'A link', html: '<p>A link</p>' };

describe('smtpMailer', () => {
	it('loads nodemailer at the first mail, not when the server starts, and keeps one transport', async () => {
		const mailer = smtpMailer({ server: 'smtp://127.0.0.1:2525', from: 'Example <no-reply@example.com>' });
		expect(nodemailer.loaded).toBe(0);
		await mailer(MESSAGE);
		await mailer({ ...MESSAGE, to: 'grace@example.com' });
		expect(nodemailer.loaded).toBe(1);
		expect(nodemailer.createTransport).toHaveBeenCalledTimes(1);
		expect(nodemailer.createTransport).toHaveBeenCalledWith('smtp://127.0.0.1:2525');
		expect(nodemailer.sendMail.mock.calls).toEqual([
			[{ ...MESSAGE, from: 'Example <no-reply@example.com>' }],
			[{ ...MESSAGE, to: 'grace@example.com', from: 'Example <no-reply@example.com>' }]
		]);
	});

	it('sends from the default sender without EMAIL_FROM, and to the log without EMAIL_SERVER', async () => {
		nodemailer.sendMail.mockClear();
		await smtpMailer({ server: 'smtp://127.0.0.1:2525', from: '' })(MESSAGE);
		expect(nodemailer.sendMail).toHaveBeenCalledWith({ ...MESSAGE, from: DEFAULT_SENDER });
		expect(smtpMailer({ server: '' })).toBe(logMailer);
	});
});
