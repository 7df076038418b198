"""A small genkit Python app of the kind a developer attaches Loopscope to.

Its own model (scripted: no model API is reachable here), two plain tools, a tool that writes a
marker file, an interrupting tool, and two flows that run a generate with them. Nothing in it is
Loopscope-specific: with GENKIT_ENV=dev genkit serves its reflection API, and with
GENKIT_TELEMETRY_SERVER set it sends its traces there, as under `genkit start`.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, Field

from genkit import Genkit, Interrupt, ToolRunContext
from genkit.model import Message, ModelRequest, ModelResponse, Part

ai = Genkit()

MODEL_NAME = 'app/scripted'


class WeatherInput(BaseModel):
    city: str = Field(description='The city to look up')


class Weather(BaseModel):
    city: str
    celsius: float
    conditions: str


class ConvertInput(BaseModel):
    celsius: float


class MarkerInput(BaseModel):
    note: str


class MarkerOutput(BaseModel):
    written: bool
    path: str | None = None


class HotelInput(BaseModel):
    city: str
    nights: int


class Booking(BaseModel):
    city: str
    nights: int
    confirmed_by: str = Field(alias='confirmedBy')


class TripInput(BaseModel):
    city: str


class TripOutput(BaseModel):
    finish_reason: str = Field(alias='finishReason')
    text: str
    interrupts: list[dict[str, Any]] | None = None
    messages: list[dict[str, Any]] | None = None


def write_marker_line(tool: str, value: Any) -> str | None:
    """Appends one JSON line to $LOOPSCOPE_APP_MARKER, so a test sees this app's own tool ran."""
    path = os.environ.get('LOOPSCOPE_APP_MARKER')
    if not path:
        return None
    line = {'runtime': 'genkit-python', 'tool': tool, 'input': value, 'pid': os.getpid(), 'at': datetime.now(timezone.utc).isoformat()}
    with open(path, 'a', encoding='utf-8') as file:
        file.write(json.dumps(line) + '\n')
    return path


@ai.tool(description='Gets the current weather in a city.')
async def getWeather(input: WeatherInput) -> Weather:  # noqa: N802 - the tool's name on the wire
    return Weather(city=input.city, celsius=21, conditions='sunny')


@ai.tool(description='Converts Celsius to Fahrenheit.')
async def convertTemperature(input: ConvertInput) -> float:  # noqa: N802
    return input.celsius * 9 / 5 + 32


@ai.tool(description='Appends a line to the file named by LOOPSCOPE_APP_MARKER.')
async def writeMarker(input: MarkerInput) -> MarkerOutput:  # noqa: N802
    path = write_marker_line('writeMarker', input.model_dump())
    return MarkerOutput(written=path is not None, path=path)


@ai.tool(description='Books a hotel; a human must confirm the price first.')
async def bookHotel(input: HotelInput, ctx: ToolRunContext) -> Booking:  # noqa: N802
    """Interrupts until restarted with resumed metadata {"confirmed": true}; then writes the marker."""
    resumed = ctx.resumed_metadata
    if not resumed:
        raise Interrupt({'reason': 'confirm-price', 'priceUsd': input.nights * 120})
    if not resumed.get('confirmed'):
        raise ValueError('the booking was not confirmed')
    write_marker_line('bookHotel', input.model_dump())
    return Booking(city=input.city, nights=input.nights, confirmedBy=str(resumed.get('confirmedBy', '')))


def output_of(messages: list[Message], name: str) -> str:
    """The last output tool `name` gave in the history, as JSON ("null" if none)."""
    for message in reversed(messages):
        for part in message.content:
            response = part.tool_response
            if response is not None and response.name == name:
                return json.dumps(response.output, sort_keys=True, separators=(',', ':'))
    return 'null'


def script_for(prompt: str) -> list[dict[str, Any]]:
    """The model's turns, chosen by the first user message ("book …" asks for the interrupting tool)."""
    city = prompt.split(' ')[-1]
    if prompt.lower().startswith('book'):
        return [
            {'requests': [('bookHotel', 'book-1', {'city': city, 'nights': 2})]},
            {'text': lambda messages: f'Booked: {output_of(messages, "bookHotel")}.'},
        ]
    return [
        {'requests': [('getWeather', 'weather-1', {'city': city}), ('convertTemperature', 'convert-1', {'celsius': 21})]},
        {'requests': [('writeMarker', 'marker-1', {'note': f'planned {city}'})]},
        {'text': lambda messages: f'{city}: {output_of(messages, "getWeather")}, {output_of(messages, "convertTemperature")}°F.'},
    ]


async def scripted_model(request: ModelRequest, _ctx: Any) -> ModelResponse:  # noqa: ANN401
    prompt = next((message.text for message in request.messages if message.role == 'user'), '')
    done = sum(1 for message in request.messages if message.role == 'model')
    script = script_for(prompt)
    if done >= len(script):
        raise ValueError(f'the script for {prompt!r} has {len(script)} turn(s); turn {done + 1} was asked for')
    turn = script[done]
    content = [Part.from_tool_request(name=name, ref=ref, input=value) for name, ref, value in turn.get('requests', [])]
    if 'text' in turn:
        content.append(Part.from_text(turn['text'](request.messages)))
    return ModelResponse(message=Message(role='model', content=content), finish_reason='stop')


ai.define_model(name=MODEL_NAME, fn=scripted_model)


def trip_output(response: Any) -> TripOutput:  # noqa: ANN401
    interrupts = [part.model_dump(by_alias=True, exclude_none=True) for part in response.interrupts]
    messages = [message.model_dump(by_alias=True, exclude_none=True) for message in response.messages] if interrupts else None
    return TripOutput(finishReason=str(response.finish_reason), text=response.text, interrupts=interrupts or None, messages=messages)


@ai.flow()
async def planTrip(input: TripInput) -> TripOutput:  # noqa: N802
    """Three model turns: getWeather and convertTemperature in parallel, then writeMarker, then text."""
    response = await ai.generate(model=MODEL_NAME, prompt=f'Plan a trip to {input.city}', tools=['getWeather', 'convertTemperature', 'writeMarker'])
    return trip_output(response)


@ai.flow()
async def bookTrip(input: TripInput) -> TripOutput:  # noqa: N802
    """The model asks for bookHotel, which interrupts; the flow returns the interrupt and the history."""
    response = await ai.generate(model=MODEL_NAME, prompt=f'Book a hotel in {input.city}', tools=['bookHotel'])
    return trip_output(response)


async def main() -> None:
    print('genkit-python-app ready', flush=True)


if __name__ == '__main__':
    ai.run_main(main())
