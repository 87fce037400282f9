export {
	DEFAULT_CLIENT,
	DEFAULT_PASSWORD,
	DEFAULT_PORT,
	DEFAULT_USER,
	defaultRedirectUris,
	HOST,
	startDevIdp,
	type DevIdp,
	type DevIdpClient,
	type DevIdpOptions,
	type DevIdpUser
} from './server.js';
export { signInAtDevIdp, type SignInCredentials, type SignInResult } from './login.js';
