import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server (smtp-server on 127.0.0.1) that keeps every message it is given, parsed. */
export interface Inbox {
	/** `smtp://127.0.0.1:<port>`: an app's `EMAIL_SERVER`. */
	url: string;
	/** Every message received so far, oldest first. */
	readonly messages: ParsedMail[];
	/** The next message to `to` that is not in `messages` yet when called (waits up to `timeoutMs`). */
	next(to: string, timeoutMs?: number): Promise<ParsedMail>;
	/** The first http(s) link in a message's text, without the punctuation that may follow it. @throws when there is none */
	linkIn(message: ParsedMail): string;
	/** Refuse every message from now on (SMTP 550), or accept them again. */
	setRefusing(refusing: boolean): void;
	close(): Promise<void>;
}

/** Starts an {@link Inbox} on a free port. No TLS and no authentication: for tests only. */
export async function startInbox(): Promise<Inbox> {
	const messages: ParsedMail[] = [];
	const waiting = new Set<() => void>();
	let refusing = false;
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, _session, callback) {
			if (refusing) {
				stream.resume();
				stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
				return;
			}
			simpleParser(stream).then(
				(mail) => {
					messages.push(mail);
					for (const wake of waiting) wake();
					callback();
				},
				(err: Error) => callback(err)
			);
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.server.address() as AddressInfo).port;
	const addressedTo = (mail: ParsedMail, to: string) =>
		[mail.to ?? []].flat().some((group) => group.value.some((address) => address.address?.toLowerCase() === to.toLowerCase()));
	return {
		url: `smtp://127.0.0.1:${port}`,
		messages,
		next(to, timeoutMs = 10_000) {
			const seen = messages.length;
			return new Promise((resolve, reject) => {
				const check = () => {
					const mail = messages.slice(seen).find((candidate) => addressedTo(candidate, to));
					if (!mail) return;
					waiting.delete(check);
					clearTimeout(timer);
					resolve(mail);
				};
				const timer = setTimeout(() => {
					waiting.delete(check);
					reject(new Error(`No mail to ${to} within ${timeoutMs} ms (${messages.length - seen} other messages).`));
				}, timeoutMs);
				waiting.add(check);
			});
		},
		linkIn(message) {
			// A sentence's own punctuation after the link is not part of it.
			const link = /https?:\/\/\S+/.exec(message.text ?? '')?.[0]?.replace(/[.,;:!?)]+$/, '');
			if (!link) throw new Error(`No link in the mail "${message.subject}".`);
			return link;
		},
		setRefusing(next) {
			refusing = next;
		},
		close: () => new Promise((resolve) => server.close(() => resolve()))
	};
}

/** An {@link Inbox} for a test file: started before its tests, closed after them. Call the getter inside tests. */
export function inboxForTests(): () => Inbox {
	let inbox: Inbox | undefined;
	beforeAll(async () => {
		inbox = await startInbox();
	});
	afterAll(() => inbox?.close());
	return () => {
		if (!inbox) throw new Error('The inbox starts before the tests: call the getter inside one.');
		return inbox;
	};
}
