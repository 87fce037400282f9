import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import type {
	AuthenticationResponseJSON,
	PublicKeyCredentialCreationOptionsJSON,
	PublicKeyCredentialRequestOptionsJSON,
	RegistrationResponseJSON
} from '@simplewebauthn/server';

/** A passkey the software authenticator holds. `counter`: its signature counter, 0 = not kept. */
interface StoredCredential {
	id: Buffer;
	rpId: string;
	userHandle: string;
	privateKey: KeyObject;
	counter: number;
}

/** What a ceremony may fake, to test that the relying party checks it. */
export interface CeremonyOverrides {
	/** The origin the "browser" puts in clientDataJSON. Default: the authenticator's. */
	origin?: string;
	/** The challenge signed. Default: the options'. */
	challenge?: string;
	/** The relying party id hashed into authenticatorData. Default: the options'. */
	rpId?: string;
	/** The user-verified flag. Default true. */
	userVerified?: boolean;
	/** The clientDataJSON type. Default `webauthn.create` / `webauthn.get`. */
	type?: string;
	/** The signature counter reported. Default: the stored one plus one (or 0 when `counter` is off). */
	counter?: number;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

/** Flags byte of authenticatorData (WebAuthn Level 3 §6.1): user present, user verified, attested credential data. */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/**
 * A software WebAuthn authenticator (ES256 keys, `none` attestation) for tests: it answers
 * `@simplewebauthn/server` options as a browser with a platform authenticator would, so that
 * the relying party's checks run on real signatures. Each answer can be faked in one way
 * ({@link CeremonyOverrides}).
 * @see https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data
 */
export class SoftAuthenticator {
	readonly credentials: StoredCredential[] = [];

	/**
	 * @param origin the page origin the "browser" reports, e.g. `http://localhost`
	 * @param options.counter whether signature counters are kept (a device-bound key) or stay 0 (a synced passkey)
	 */
	constructor(
		private readonly origin: string,
		private readonly options: { counter: boolean } = { counter: true }
	) {}

	/** Makes a passkey for `options` (navigator.credentials.create) and returns the response JSON. */
	register(options: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides = {}): RegistrationResponseJSON {
		const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
		const jwk = publicKey.export({ format: 'jwk' });
		const cose = encodeCBOR(
			new Map<number, number | Uint8Array>([
				[1, 2], // kty: EC2
				[3, -7], // alg: ES256
				[-1, 1], // crv: P-256
				[-2, Buffer.from(jwk.x!, 'base64url')],
				[-3, Buffer.from(jwk.y!, 'base64url')]
			])
		);
		const id = randomBytes(16);
		const rpId = options.rp.id!;
		const credential: StoredCredential = { id, rpId, userHandle: options.user.id, privateKey, counter: 0 };
		const counter = overrides.counter ?? 0;
		const attested = Buffer.concat([Buffer.alloc(16), Buffer.from([0, id.length]), id, Buffer.from(cose)]);
		const authData = authenticatorData(overrides.rpId ?? rpId, flags(overrides) | FLAG_AT, counter, attested);
		const attestationObject = encodeCBOR(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map<string, CBORType>()], ['authData', authData]]));
		this.credentials.push(credential);
		return {
			id: b64url(id),
			rawId: b64url(id),
			type: 'public-key',
			response: {
				clientDataJSON: this.clientData('webauthn.create', options.challenge, overrides),
				attestationObject: b64url(Buffer.from(attestationObject)),
				transports: ['internal', 'hybrid']
			},
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	/**
	 * Signs `options`' challenge with a passkey for its relying party (navigator.credentials.get),
	 * the newest one unless `credential` says which, and returns the response JSON.
	 */
	authenticate(options: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides = {}, credential?: StoredCredential): AuthenticationResponseJSON {
		const chosen = credential ?? this.credentials.filter((candidate) => candidate.rpId === options.rpId).at(-1);
		if (!chosen) throw new Error(`No passkey for ${options.rpId}.`);
		if (this.options.counter) chosen.counter += 1;
		const authData = authenticatorData(overrides.rpId ?? chosen.rpId, flags(overrides), overrides.counter ?? chosen.counter);
		const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
		const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), chosen.privateKey);
		return {
			id: b64url(chosen.id),
			rawId: b64url(chosen.id),
			type: 'public-key',
			response: { clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: chosen.userHandle },
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	private clientData(type: string, challenge: string, overrides: CeremonyOverrides): string {
		const data = { type: overrides.type ?? type, challenge: overrides.challenge ?? challenge, origin: overrides.origin ?? this.origin, crossOrigin: false };
		return b64url(Buffer.from(JSON.stringify(data)));
	}
}

const flags = (overrides: CeremonyOverrides) => FLAG_UP | (overrides.userVerified === false ? 0 : FLAG_UV);

/** rpIdHash (32) | flags (1) | signCount (4, big-endian) | attested credential data, if any. */
function authenticatorData(rpId: string, flagBits: number, counter: number, attested: Buffer = Buffer.alloc(0)): Buffer {
	const signCount = Buffer.alloc(4);
	signCount.writeUInt32BE(counter);
	return Buffer.concat([sha256(rpId), Buffer.from([flagBits]), signCount, attested]);
}
