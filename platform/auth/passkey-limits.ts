/** The longest name a person gives one of their passkeys ("iPad", "the school laptop"). */
export const PASSKEY_NAME_MAX = 60;
