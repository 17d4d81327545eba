/** The relying-party stand-in of the OIDC end-to-end test (next-auth v4). */
const config = { reactStrictMode: true };
export default config;
