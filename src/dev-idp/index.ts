export {
	DEFAULT_CLIENT,
	DEFAULT_PASSWORD,
	DEFAULT_PORT,
	DEFAULT_USER,
	defaultRedirectUris,
	HOST,
	startDevIdp,
	type DevIdp,
	type DevIdpOptions
} from './server.js';
export type { DevIdpUser } from './interaction.js';
export type { DevIdpClient } from './provider.js';
export { signInAtDevIdp, type SignInCredentials, type SignInResult } from './login.js';
