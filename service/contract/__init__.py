"""The API's OpenAPI document, built from the code it describes."""
