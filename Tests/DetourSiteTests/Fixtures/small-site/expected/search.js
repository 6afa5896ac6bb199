// The fixture theme's own search client: an asset of the project replaces the built-in one.
