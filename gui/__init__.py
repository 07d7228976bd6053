"""`cellfish gui`: a local web board for every variant (Starlette on uvicorn, websockets)."""
