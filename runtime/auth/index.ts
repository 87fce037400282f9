// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
export { default as AuthCard } from './AuthCard.svelte';
export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { signIn, signOut } from './client.js';
export type { SignInOptions, SignOutOptions } from './client.js';
export { timeAgo } from './time.js';
export type { Session, User } from './types.js';
