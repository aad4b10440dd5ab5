"""Operations that are neither rules nor HTTP, called alike by the API, the workers and the CLI."""
