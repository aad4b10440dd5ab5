"""The API's OpenAPI document, built from the code it describes: the request schemas, each
game's commands, options and events, and the problem codes the server sends."""
